use super::*;
use crate::records::check::{OperationChecks, Rules};

fn verdict(line: &str) -> Result<(), Problem> {
    verdict_with(line, &CheckOptions::default())
}

fn verdict_with(line: &str, options: &CheckOptions) -> Result<(), Problem> {
    match check_line(line.as_bytes(), options) {
        Line::Record(result) => result.map(|_| ()),
        other => panic!("{line}: not a record: {other:?}"),
    }
}

fn problem(line: &str) -> Problem {
    verdict(line).expect_err(line)
}

#[test]
fn pgn_fen_tags_are_records_and_other_pgn_lines_are_not() {
    let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
    let tag = format!("[FEN \"{fen}\"]\r");
    let span = Syntax::Pgn.record_span(tag.as_bytes()).unwrap();
    assert_eq!(&tag[span.clone()], fen);
    assert_eq!(Syntax::Records.record_span(tag.as_bytes()), Some(span));
    for skipped in ["[Event \"SP 860\"]", "  [SetUp \"1\"] ", "[Fen \"x\"]"] {
        assert_eq!(
            Syntax::Pgn.record_span(skipped.as_bytes()),
            None,
            "{skipped}"
        );
        assert_eq!(
            Syntax::Records.record_span(skipped.as_bytes()),
            None,
            "{skipped}"
        );
    }
    for movetext in ["*", "1. e4 e5 *", "{ [FEN \"x\"] }", "", "[not a tag"] {
        assert_eq!(
            Syntax::Pgn.record_span(movetext.as_bytes()),
            None,
            "{movetext}"
        );
        let whole = Syntax::Records.record_span(movetext.as_bytes());
        assert_eq!(whole, Some(0..movetext.len()), "{movetext}");
    }
    // A broken FEN tag is still a record, so that it is reported, not skipped.
    assert_eq!(Syntax::Pgn.record_span(b"[FEN \"x"), Some(0..7));
    assert_eq!(Syntax::detect("b-960.PGN", b""), Syntax::Pgn);
    assert_eq!(Syntax::detect("-", b"\r\n  [Event \"x\"]\n"), Syntax::Pgn);
    assert_eq!(Syntax::detect("x.pgn.epd", fen.as_bytes()), Syntax::Records);
    assert_eq!(Syntax::detect("-", b"[oops\n"), Syntax::Records);
}

#[test]
fn blank_lines_and_comments_are_not_records() {
    let options = CheckOptions::default();
    assert!(matches!(check_line(b"", &options), Line::Blank));
    assert!(matches!(check_line(b" \t\r", &options), Line::Blank));
    assert!(matches!(check_line(b"  # note", &options), Line::Comment));
}

#[test]
fn fen_and_epd_records() {
    verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1").unwrap();
    verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\r").unwrap();
    verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ\tw  EAea -").unwrap();
    let line = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - bm Nc3; id \"SP 860\";  ";
    match check_line(line.as_bytes(), &CheckOptions::default()) {
        Line::Record(Ok(record)) => {
            assert_eq!(record.kind, RecordKind::Epd);
            assert_eq!(record.operations, "bm Nc3; id \"SP 860\";");
        }
        other => panic!("{other:?}"),
    }
    // Perft-suite style: empty operations before each depth.
    verdict("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - ;D1 26 ;D2 568").unwrap();
}

#[test]
fn operations_after_a_fen_s_counters_as_perft_suites_write_them() {
    // Ethereal's fischer.epd: six fields, then the counts.
    let line = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528  ";
    let Line::Record(Ok(record)) = check_line(line.as_bytes(), &CheckOptions::default()) else {
        panic!("{line} refused");
    };
    assert_eq!(record.kind, RecordKind::Fen);
    assert_eq!(record.operations, ";D1 21 ;D2 528");
    let setup = shakmaty::Position::to_setup(&record.position, shakmaty::EnPassantMode::Legal);
    assert_eq!((setup.halfmoves, setup.fullmoves.get()), (2, 9));
    // normalize keeps them.
    let canonical = record.canonical(crate::starts::notation::CastlingNotation::Shredder);
    assert_eq!(canonical, line.trim_end());
    // After the counters, what follows is operations and their syntax applies.
    let line = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 3";
    let p = problem(line);
    assert_eq!((p.field, p.column), (Field::Operations, line.len()));
    assert_eq!(
        p.message,
        "EPD operations: an opcode starts with a letter, found `3`"
    );
    // Not two numbers: operations from the fifth field, as before.
    let line = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 x ;D1 21";
    let p = problem(line);
    assert_eq!(
        (p.field, p.column),
        (Field::Operations, line.find(" 2 ").unwrap() + 2)
    );
}

#[test]
fn syntax_errors_name_field_and_column() {
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNB w EAea - 0 1");
    assert_eq!(
        (p.field, p.column, p.kind.name()),
        (Field::Board, 43, "InvalidBoard")
    );
    assert_eq!(p.message, "board: rank 1 has 7 squares, expected 8");
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ x EAea - 0 1");
    assert_eq!((p.field, p.column), (Field::Turn, 45));
    assert_eq!(p.message, "side to move: expected `w` or `b`, found `x`");
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w eaEA - 0 1");
    assert_eq!((p.field, p.column), (Field::Castling, 49));
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea e9 0 1");
    assert_eq!((p.field, p.column), (Field::EnPassant, 52));
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 x");
    assert_eq!((p.field, p.column), (Field::Fullmoves, 56));
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0");
    assert_eq!(p.field, Field::Fullmoves);
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w");
    assert_eq!((p.field, p.column), (Field::Castling, 46));
    let p = problem("rbknrnbq/pppppppp/44/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1");
    assert_eq!((p.field, p.column), (Field::Board, 20));
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ~ w EAea - 0 1");
    assert!(p.message.contains("crazyhouse"), "{p:?}");
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - bm \"e4;");
    assert_eq!(p.field, Field::Operations);
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 1bm e4;");
    assert_eq!((p.field, p.column), (Field::Operations, 54));
}

#[test]
fn encoding_problems_are_named() {
    let p = problem("rbknrnbq/pppppppp/8/8/8/8/PPPP\0PPP/RBKNRNBQ w EAea - 0 1");
    assert_eq!((p.kind.name(), p.column), ("Encoding", 31));
    assert!(p.message.contains("NUL"), "{p:?}");
    let mut line = b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - c0 \"".to_vec();
    line.extend_from_slice(b"\xff\";");
    let Line::Record(Err(p)) = check_line(&line, &CheckOptions::default()) else {
        panic!()
    };
    assert_eq!((p.kind.name(), p.column), ("Encoding", 58));
    assert!(p.message.contains("UTF-8"), "{p:?}");
    // UTF-8 in a comment operand is fine.
    verdict("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - c0 \"Café\";").unwrap();
}

#[test]
fn start_positions() {
    let options = CheckOptions {
        start_positions: true,
        ..CheckOptions::default()
    };
    let check = |line: &str| match check_line(line.as_bytes(), &options) {
        Line::Record(result) => result.map(|record| record.start.unwrap().to_string()),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";").unwrap(),
        "860"
    );
    let p =
        check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 518\";").unwrap_err();
    assert_eq!((p.kind.name(), p.column), ("IdMismatch", 58));
    let p = check("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 3 1").unwrap_err();
    assert_eq!(p.kind, ProblemKind::NotAStart);
    assert!(p.message.contains("move counters 3 1"), "{p:?}");
}

#[test]
fn epd_operands() {
    let ops = "bm Nc3 e4; c0 \"a; b\"; id \"SP 860\"; acd 3";
    assert_eq!(epd_operand(ops, "id"), Some("SP 860"));
    assert_eq!(epd_operand(ops, "bm"), Some("Nc3"));
    assert_eq!(epd_operand(ops, "acd"), Some("3"));
    assert_eq!(epd_operand(ops, "c1"), None);
}

/// Nothing is valid that was not read: words after the fields with no `;` at all are stray
/// text (python-chess rejects these three lines), at the column they start; operations
/// ended by `;` (test suites) or begun by one (perft suites) are still read.
#[test]
fn stray_text_after_the_fields_is_invalid() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    for (tail, column) in [
        (" 0 1 extra tokens", 58),
        (" extra tokens", 54),
        (" 0 1 garbage", 58),
    ] {
        let line = format!("{start}{tail}");
        let found = problem(&line);
        assert_eq!(
            (found.kind.name(), found.column),
            ("StrayText", column),
            "{line}: {found:?}"
        );
        assert_eq!(found.field, Field::Operations, "{line}");
    }
    for tail in [
        " 0 1",
        "",
        " bm e4; id \"WAC.001\";",
        " bm e4; id \"x y\"",
        " 0 1 ;D1 20 ;D2 400",
        " ;D1 20 ;D2 400",
        " id \"no; semicolon outside\";",
    ] {
        let line = format!("{start}{tail}");
        assert_eq!(verdict(&line), Ok(()), "{line}");
    }
    // A `;` inside a string is not a separator.
    let line = format!("{start} id \"a;b\"");
    assert_eq!(problem(&line).kind, ProblemKind::StrayText);
}

/// Property tests of the parser; `scripts/fuzz-records.sh` runs the `fuzz_` ones for
/// as long as it is told to, with many more cases.
mod properties {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::Position;

    /// Bytes close to records: FEN characters, blanks, quotes, a few strangers.
    fn record_like() -> impl Strategy<Value = Vec<u8>> {
        let alphabet: Vec<u8> =
            b"pnbrqkPNBRQK012345678/ -wbKQkqABCDEFGHabcdefgh;\"\t~_+x\r\0\xff\xc3\xa9".to_vec();
        prop::collection::vec(prop::sample::select(alphabet), 0..90)
    }

    fn board_like() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(b"pnbrqkPNBRQK12345678/".to_vec()),
            0..50,
        )
    }

    /// A position after `plies` random moves from a random start.
    fn played(seed: u64, plies: usize) -> Chess {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let start = crate::starts::start::RandomStarts::new(seed, seed.is_multiple_of(3))
            .next()
            .expect("endless");
        let mut position = start.position().expect("a start");
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        position
    }

    fn never_panics_and_points_into_the_line(line: &[u8]) {
        let checks = [
            (Rules::PythonChess, true, OperationChecks::Syntax),
            (Rules::Strict, true, OperationChecks::Syntax),
            (
                Rules::PythonChess,
                false,
                OperationChecks::Position { perft_depth: 2 },
            ),
        ];
        for (rules, start_positions, operations) in checks {
            let options = CheckOptions {
                rules,
                start_positions,
                operations,
                ..CheckOptions::default()
            };
            if let Line::Record(Err(problem)) = check_line(line, &options) {
                assert!(
                    problem.column >= 1 && problem.column <= line.len() + 1,
                    "{problem:?}"
                );
                assert!(!problem.message.is_empty());
            }
            let _ = validate_line(line, &options);
        }
    }

    /// Cases per property: 2,000, or `SP960_FUZZ_CASES` (the fuzz script raises it).
    fn cases() -> u32 {
        std::env::var("SP960_FUZZ_CASES")
            .ok()
            .and_then(|cases| cases.parse().ok())
            .unwrap_or(2_000)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        #[test]
        fn fuzz_any_bytes_get_a_verdict(line in prop::collection::vec(any::<u8>(), 0..120)) {
            never_panics_and_points_into_the_line(&line);
        }

        #[test]
        fn fuzz_record_like_bytes_get_a_verdict(line in record_like()) {
            never_panics_and_points_into_the_line(&line);
        }

        /// Edits of real FENs: a verdict, and a valid one only if python-chess's rules
        /// (shakmaty minus the two documented relaxations) accept the position.
        #[test]
        fn fuzz_edited_fens_get_a_verdict(
            seed in any::<u64>(),
            plies in 0usize..80,
            edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b"pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09".to_vec())), 1..4),
        ) {
            let mut line = crate::starts::notation::position_fen(&played(seed, plies), crate::starts::notation::CastlingNotation::Shredder).into_bytes();
            for (index, byte) in edits {
                let at = index.index(line.len());
                line[at] = byte;
            }
            never_panics_and_points_into_the_line(&line);
        }

        /// Operations made of the tokens that matter (opcodes, moves, counts, quotes and
        /// separators) after a real position: a verdict, a column inside the line.
        #[test]
        fn fuzz_operations_get_a_verdict(
            seed in any::<u64>(),
            plies in 0usize..60,
            tokens in prop::collection::vec(prop::sample::select(vec![
                "bm", "am", "sm", "pv", "id", "D1", "D2", "D0", "D99", "D", ";", " ", "\"",
                "20", "400", "x", "e4", "e2e4", "Nf3", "O-O", "0-0-0", "e1h1", "--", "0000",
                "Q@e4", "e8=Q+", "Kxh8#", "18446744073709551616",
            ]), 0..12),
        ) {
            let fields = crate::starts::notation::epd_fields(
                &played(seed, plies).to_setup(shakmaty::EnPassantMode::Legal),
                crate::starts::notation::CastlingNotation::Shredder,
            );
            let line = format!("{fields} {}", tokens.join(" "));
            never_panics_and_points_into_the_line(line.as_bytes());
        }

        /// Every legal move of a real position is a legal `bm`, in SAN and in UCI (both
        /// castling notations), and a right depth-1 count passes where a wrong one fails.
        #[test]
        fn fuzz_every_legal_move_is_a_legal_bm(seed in any::<u64>(), plies in 0usize..80) {
            use crate::starts::castling::{CastlingDialect, move_text};
            let position = played(seed, plies);
            let fields = crate::starts::notation::epd_fields(
                &position.to_setup(shakmaty::EnPassantMode::Legal),
                crate::starts::notation::CastlingNotation::Shredder,
            );
            let options = CheckOptions {
                operations: OperationChecks::Position { perft_depth: 1 },
                ..CheckOptions::default()
            };
            let moves = position.legal_moves();
            let mut operations = format!(";D1 {} ;bm", moves.len());
            for m in &moves {
                let san = shakmaty::san::SanPlus::from_move(position.clone(), *m);
                operations.push_str(&format!(
                    " {san} {} {}",
                    move_text(m, CastlingDialect::Chess960),
                    move_text(m, CastlingDialect::Standard)
                ));
            }
            if moves.is_empty() {
                operations = ";D1 0".to_owned();
            }
            let line = format!("{fields} {operations}");
            let verdict = check_line(line.as_bytes(), &options);
            prop_assert!(matches!(verdict, Line::Record(Ok(_))), "{line}: {verdict:?}");
            let wrong = format!("{fields} ;D1 {}", moves.len() + 1);
            let verdict = check_line(wrong.as_bytes(), &options);
            prop_assert!(
                matches!(&verdict, Line::Record(Err(p)) if p.kind == ProblemKind::WrongPerftCount),
                "{wrong}: {verdict:?}"
            );
        }

        /// The branch-free board parser accepts exactly what shakmaty's board parser
        /// accepts (without its `~` and runs of digits, which sp960 refuses), and
        /// reads the same pieces.
        #[test]
        fn fuzz_board_parser_agrees_with_shakmaty(text in board_like()) {
            let ours = parse_board(&text, 0).ok();
            let theirs = if text.windows(2).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit()) {
                None
            } else {
                Board::from_ascii_board_fen(&text).ok()
            };
            prop_assert_eq!(ours, theirs);
        }

        /// Real boards (every board shakmaty writes) read back the same.
        #[test]
        fn fuzz_real_boards_read_back(seed in any::<u64>(), plies in 0usize..120) {
            let position = played(seed, plies);
            let text = position.board().board_fen().to_string();
            let ours = parse_board(text.as_bytes(), 0).ok();
            prop_assert_eq!(ours.as_ref(), Some(position.board()));
        }

        /// Every FEN sp960 writes for a legal position is valid, and normalizing it
        /// (in either notation) gives a record that reads back as the same position.
        #[test]
        fn fuzz_written_fens_are_valid_and_normalize_round_trips(seed in any::<u64>(), plies in 0usize..120) {
            let position = played(seed, plies);
            for notation in [crate::starts::notation::CastlingNotation::Shredder, crate::starts::notation::CastlingNotation::Xfen] {
                let fen = crate::starts::notation::position_fen(&position, notation);
                let Line::Record(Ok(record)) = check_line(fen.as_bytes(), &CheckOptions::default()) else {
                    panic!("{fen} refused");
                };
                let canonical = record.canonical(notation);
                prop_assert_eq!(&canonical, &fen);
                prop_assert_eq!(&record.position, &position);
            }
        }
    }
}
